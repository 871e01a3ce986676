package io.tributary.transport;

import java.util.concurrent.ForkJoinPool;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** A stateless MQTT front end: decodes MQTT, produces publishes to Kafka, writes deliveries to sockets. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class TransportServiceApplication {

    static final String COMMON_POOL_PARALLELISM = "java.util.concurrent.ForkJoinPool.common.parallelism";

    public static void main(String[] args) {
        atLeastTwoCommonPoolThreads();
        SpringApplication.run(TransportServiceApplication.class, args);
    }

    /**
     * The JDK's HttpClient (session-service calls) completes every response through CompletableFuture's default
     * executor. On one or two cores the common pool's parallelism is 1, and CompletableFuture then starts a new
     * thread for each such step: a profile of a 1,000/s CONNECT storm on two cores showed thread creation and
     * stack mapping (pthread_create, mmap) in every connect batch. With two common-pool threads the steps run on
     * the pool. Set before anything touches the pool; an explicit setting of the property is kept.
     */
    static void atLeastTwoCommonPoolThreads() {
        if (System.getProperty(COMMON_POOL_PARALLELISM) == null) {
            System.setProperty(
                    COMMON_POOL_PARALLELISM,
                    Integer.toString(Math.max(2, Runtime.getRuntime().availableProcessors() - 1)));
        }
        if (ForkJoinPool.getCommonPoolParallelism() < 2) {
            org.slf4j.LoggerFactory.getLogger(TransportServiceApplication.class)
                    .warn(
                            "ForkJoinPool common parallelism is {}: CompletableFuture will start a thread per async step",
                            ForkJoinPool.getCommonPoolParallelism());
        }
    }
}
