package io.tributary.session.web;

import org.springframework.boot.tomcat.TomcatConnectorCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * MQTT client ids may hold {@code /}; the admin API takes a client id as one percent-encoded path segment
 * ({@code /api/v1/sessions/a%2Fb}). Tomcat refuses an encoded slash by default (400); passed through, Spring MVC
 * matches the segment as one and decodes the path variable. Routing never depends on a decoded slash, and the
 * bearer-token filter covers the whole {@code /api/v1} prefix, so nothing can be reached around it this way.
 */
@Configuration(proxyBeanMethods = false)
public class EncodedSlashConfiguration {

    @Bean
    TomcatConnectorCustomizer encodedSlashPassThrough() {
        return connector -> connector.setEncodedSolidusHandling("passthrough");
    }
}
