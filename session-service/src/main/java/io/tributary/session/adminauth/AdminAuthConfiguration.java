package io.tributary.session.adminauth;

import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.json.JsonMapper;

/** Puts {@link AdminTokenFilter} in front of the admin REST API, and only there. */
@Configuration(proxyBeanMethods = false)
public class AdminAuthConfiguration {

    @Bean
    FilterRegistrationBean<AdminTokenFilter> adminTokenFilter(AdminTokenService tokens, JsonMapper json) {
        FilterRegistrationBean<AdminTokenFilter> registration =
                new FilterRegistrationBean<>(new AdminTokenFilter(tokens, json));
        registration.addUrlPatterns("/api/v1/*", "/api/v1");
        registration.setName("adminTokenFilter");
        return registration;
    }
}
