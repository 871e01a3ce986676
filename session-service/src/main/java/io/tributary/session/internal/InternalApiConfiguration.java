package io.tributary.session.internal;

import io.tributary.session.internalauth.InternalCallerGate;
import io.tributary.session.internalauth.InternalCallerInterceptor;
import io.tributary.session.internalauth.InternalTokenFilter;
import io.tributary.session.internalauth.InternalTokens;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The internal API on its own connector ({@link InternalConnector}), with {@link InternalTokenFilter} (which role
 * calls, from its token) and {@link InternalCallerInterceptor} (whether that role may call the endpoint) in front of
 * it, and only there; the batch endpoints ({@link InternalBatchEndpoints}) make the same two checks themselves
 * ({@link InternalCallerGate}), served before the filters.
 */
@Configuration(proxyBeanMethods = false)
public class InternalApiConfiguration {

    private static final Logger log = LoggerFactory.getLogger(InternalApiConfiguration.class);

    @Bean
    InternalConnector internalConnector() {
        return new InternalConnector();
    }

    @Bean
    InternalConnectorCustomizer internalConnectorCustomizer(
            InternalConnector connector,
            InternalApiProperties properties,
            Environment environment,
            ObjectProvider<InternalBatchEndpoints> batchEndpoints) {
        return new InternalConnectorCustomizer(connector, properties, environment, batchEndpoints);
    }

    @Bean
    InternalTokens internalTokens(InternalApiProperties properties, Environment environment) {
        if (environment.containsProperty("tributary.internal.token")) {
            log.warn("TRIBUTARY_INTERNAL_TOKEN (tributary.internal.token) is set, but session-service no longer"
                    + " reads it: it takes TRIBUTARY_INTERNAL_TRANSPORT_TOKEN and TRIBUTARY_INTERNAL_ROUTING_TOKEN, one"
                    + " token per calling role, and refuses the former shared token; remove the setting");
        }
        return new InternalTokens(properties.tokens());
    }

    @Bean
    InternalCallerGate internalCallerGate(InternalTokens tokens) {
        return new InternalCallerGate(tokens);
    }

    @Bean
    FilterRegistrationBean<InternalTokenFilter> internalTokenFilter(InternalCallerGate gate) {
        FilterRegistrationBean<InternalTokenFilter> registration =
                new FilterRegistrationBean<>(new InternalTokenFilter(gate));
        registration.addUrlPatterns("/internal/*");
        registration.setName("internalTokenFilter");
        return registration;
    }

    @Bean
    WebMvcConfigurer internalCallerCheck() {
        return new WebMvcConfigurer() {
            @Override
            public void addInterceptors(InterceptorRegistry registry) {
                registry.addInterceptor(new InternalCallerInterceptor()).addPathPatterns("/internal/**");
            }
        };
    }
}
