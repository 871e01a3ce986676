package io.tributary.session.queue;

import io.tributary.session.redis.RedisAccess;
import io.tributary.sessionqueue.QueueAdmin;
import io.tributary.sessionqueue.RedisQueueAdmin;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Session-service owns the lifecycle of session queues (session-queue's {@link QueueAdmin}): a persistent session
 * gets one at CONNECT, and it is deleted with the session. Unlike presence, a failure here fails the caller: a
 * persistent session without its queue would lose messages.
 */
@Configuration(proxyBeanMethods = false)
public class SessionQueueConfiguration {

    @Bean
    public QueueAdmin sessionQueues(RedisAccess redis) {
        return new RedisQueueAdmin(redis.connection());
    }
}
