package io.tributary.session.internal;

import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Puts {@link InternalTokenFilter} in front of the internal API, and only there. */
@Configuration(proxyBeanMethods = false)
public class InternalApiConfiguration {

    @Bean
    FilterRegistrationBean<InternalTokenFilter> internalTokenFilter(InternalApiProperties properties) {
        FilterRegistrationBean<InternalTokenFilter> registration =
                new FilterRegistrationBean<>(new InternalTokenFilter(properties.token()));
        registration.addUrlPatterns("/internal/*");
        registration.setName("internalTokenFilter");
        return registration;
    }
}
