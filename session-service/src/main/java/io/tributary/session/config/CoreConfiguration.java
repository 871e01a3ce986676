package io.tributary.session.config;

import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
public class CoreConfiguration {

    /** Wall clock for session timestamps and expiry; one bean so tests and all writers agree on "now". */
    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }
}
