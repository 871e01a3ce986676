package io.tributary.session.console;

import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.ViewControllerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The admin console: static files of the tributary-admin-console jar ({@code META-INF/resources/console}), served by
 * Spring MVC's default resource handling. Its pages are routed in the browser ({@code #/sessions}), so only the
 * entry points need mapping here. Not behind the bearer-token filter: the files hold no data, and every API call the
 * console makes carries the token its login got.
 *
 * <p>Only on the REST port. The actuator's child context on {@code MANAGEMENT_PORT} is a web server of its own whose
 * Spring MVC takes this configurer (and the static resources) from the main context too, so there console paths
 * answer 404 (the internal port's valve already refuses them).
 */
@Configuration(proxyBeanMethods = false)
public class ConsoleWebConfiguration implements WebMvcConfigurer {

    private final ServletContext restPort;

    public ConsoleWebConfiguration(ServletContext restPort) {
        this.restPort = restPort;
    }

    @Override
    public void addViewControllers(ViewControllerRegistry registry) {
        registry.addRedirectViewController("/console", "/console/");
        registry.addViewController("/console/").setViewName("forward:/console/index.html");
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(new HandlerInterceptor() {
                    @Override
                    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler)
                            throws Exception {
                        if (request.getServletContext() == restPort) {
                            return true;
                        }
                        response.sendError(HttpServletResponse.SC_NOT_FOUND);
                        return false;
                    }
                })
                .addPathPatterns("/console", "/console/**");
    }
}
