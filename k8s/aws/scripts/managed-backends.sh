#!/usr/bin/env bash
# Writes the endpoints of existing Amazon MSK, RDS for PostgreSQL and ElastiCache resources into
# overlays/aws-managed/kafka.env and session-stores.env (docs/deploy.md, "AWS managed data stores", creates them).
#   MSK_CLUSTER_ARN=arn:aws:kafka:... RDS_INSTANCE_ID=tributary ELASTICACHE_GROUP_ID=tributary \
#     k8s/aws/scripts/managed-backends.sh
# The services speak plaintext Kafka without authentication (they have no TLS or SASL settings yet): the MSK
# cluster must allow plaintext client traffic and be reachable only from the cluster's VPC.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
need aws

: "${MSK_CLUSTER_ARN:?set MSK_CLUSTER_ARN}" "${RDS_INSTANCE_ID:?set RDS_INSTANCE_ID}" "${ELASTICACHE_GROUP_ID:?set ELASTICACHE_GROUP_ID}"
overlay="$AWS_DIR/overlays/aws-managed"

brokers="$(aws kafka get-bootstrap-brokers --region "$AWS_REGION" --cluster-arn "$MSK_CLUSTER_ARN" \
  --query BootstrapBrokerString --output text)"
[[ -n "$brokers" && "$brokers" != None ]] || die "MSK cluster has no plaintext bootstrap brokers (client-broker encryption must allow PLAINTEXT)"

read -r db_host db_port db_user < <(aws rds describe-db-instances --region "$AWS_REGION" \
  --db-instance-identifier "$RDS_INSTANCE_ID" \
  --query 'DBInstances[0].[Endpoint.Address,Endpoint.Port,MasterUsername]' --output text)

read -r redis_host redis_port redis_tls < <(aws elasticache describe-replication-groups --region "$AWS_REGION" \
  --replication-group-id "$ELASTICACHE_GROUP_ID" \
  --query 'ReplicationGroups[0].[NodeGroups[0].PrimaryEndpoint.Address,NodeGroups[0].PrimaryEndpoint.Port,TransitEncryptionEnabled]' \
  --output text)
scheme=redis
[[ "$redis_tls" == True ]] && scheme=rediss

echo "KAFKA_BOOTSTRAP_SERVERS=$brokers" > "$overlay/kafka.env"
{
  echo "POSTGRES_URL=jdbc:postgresql://$db_host:$db_port/tributary?sslmode=require"
  echo "POSTGRES_USER=$db_user"
  echo "REDIS_URL=$scheme://$redis_host:$redis_port"
} > "$overlay/session-stores.env"
log "wrote $overlay/kafka.env and session-stores.env"
log "next: POSTGRES_PASSWORD=<the RDS password of $db_user> k8s/aws/scripts/install.sh aws-managed"
