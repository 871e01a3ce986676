package io.tributary.session.internal;

import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The internal API on its own connector ({@link InternalConnector}), with {@link InternalTokenFilter} in front of it,
 * and only there.
 */
@Configuration(proxyBeanMethods = false)
public class InternalApiConfiguration {

    @Bean
    InternalConnector internalConnector() {
        return new InternalConnector();
    }

    @Bean
    InternalConnectorCustomizer internalConnectorCustomizer(
            InternalConnector connector, InternalApiProperties properties, Environment environment) {
        return new InternalConnectorCustomizer(connector, properties, environment);
    }

    @Bean
    FilterRegistrationBean<InternalTokenFilter> internalTokenFilter(InternalApiProperties properties) {
        FilterRegistrationBean<InternalTokenFilter> registration =
                new FilterRegistrationBean<>(new InternalTokenFilter(properties.token()));
        registration.addUrlPatterns("/internal/*");
        registration.setName("internalTokenFilter");
        return registration;
    }
}
