package io.tributary.session.console;

import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.ViewControllerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The admin console: static files of the tributary-admin-console jar ({@code META-INF/resources/console}), served by
 * Spring MVC's default resource handling. Its pages are routed in the browser ({@code #/sessions}), so only the
 * entry points need mapping here. Not behind the bearer-token filter: the files hold no data, and every API call the
 * console makes carries the token its login got.
 */
@Configuration(proxyBeanMethods = false)
public class ConsoleWebConfiguration implements WebMvcConfigurer {

    @Override
    public void addViewControllers(ViewControllerRegistry registry) {
        registry.addRedirectViewController("/console", "/console/");
        registry.addViewController("/console/").setViewName("forward:/console/index.html");
    }
}
