package io.tributary.it.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.MqttClient;
import com.hivemq.client.mqtt.lifecycle.MqttDisconnectSource;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.exceptions.Mqtt5DisconnectException;
import com.hivemq.client.mqtt.mqtt5.message.disconnect.Mqtt5DisconnectReasonCode;
import io.tributary.it.support.Clients;
import io.tributary.it.support.HeadlessChromium;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.TributaryCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The admin console in a real browser against the running cluster: an operator signs in, finds a connected MQTT
 * client on the sessions page and disconnects it; the client must really lose its connection, with MQTT 5 reason
 * 0x98 (administrative action). Screenshots of each step land in {@code target/console-e2e/}.
 */
@ExtendWith(LogsOnFailure.class)
class AdminConsoleEndToEndTest {

    private static final Path SCREENSHOTS = Path.of("target", "console-e2e");
    private static TributaryCluster cluster;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
    }

    @Test
    void operator_signs_in_finds_a_connected_client_and_disconnects_it() throws Exception {
        String clientId = Clients.id("console-e2e");
        CompletableFuture<Throwable> closedByServer = new CompletableFuture<>();
        Mqtt5BlockingClient client = MqttClient.builder()
                .useMqttVersion5()
                .identifier(clientId)
                .serverHost("127.0.0.1")
                .serverPort(cluster.mqttPort(0))
                .addDisconnectedListener(ctx -> {
                    if (ctx.getSource() == MqttDisconnectSource.SERVER) {
                        closedByServer.complete(ctx.getCause());
                    }
                })
                .buildBlocking();
        client.connect();
        client.subscribeWith().topicFilter("console/e2e/" + clientId + "/#").send();

        try (HeadlessChromium chromium = HeadlessChromium.start(SCREENSHOTS)) {
            ChromeDriver browser = chromium.driver();
            WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(20));

            browser.get(cluster.sessionApiUrl() + "/console/");
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.name("username")));
            chromium.screenshot("01-login");
            browser.findElement(By.name("username")).sendKeys(TributaryCluster.ADMIN_USER);
            browser.findElement(By.name("password")).sendKeys(TributaryCluster.ADMIN_PASSWORD);
            browser.findElement(By.cssSelector("button[type=submit]")).click();

            // The overview fills in from GET /api/v1/overview: at least our client is connected.
            wait.until(d -> {
                String text = d.findElement(By.cssSelector("[data-testid=stat-connections]"))
                        .getText();
                return !text.equals("–") && Long.parseLong(text.replace(",", "")) >= 1;
            });
            chromium.screenshot("02-overview");

            browser.findElement(By.linkText("Sessions")).click();
            WebElement prefix = wait.until(ExpectedConditions.visibilityOfElementLocated(By.name("clientIdPrefix")));
            prefix.sendKeys(clientId);
            browser.findElement(By.xpath("//button[text()='Search']")).click();
            By row = By.cssSelector("tr[data-client-id='" + clientId + "']");
            wait.until(ExpectedConditions.elementToBeClickable(row)).click();
            WebElement state = wait.until(
                    ExpectedConditions.visibilityOfElementLocated(By.cssSelector("[data-testid=session-state]")));
            assertThat(state.getText()).isEqualTo("connected to " + cluster.nodeId(0));
            assertThat(browser.findElement(By.cssSelector("[data-testid=session-details]"))
                            .getText())
                    .contains("MQTT 5.0")
                    .contains("console/e2e/" + clientId + "/#");
            chromium.screenshot("03-session-details");

            browser.findElement(By.xpath("//button[text()='Disconnect']")).click();
            wait.until(ExpectedConditions.textToBePresentInElementLocated(
                    By.cssSelector(".notice"), "Disconnect sent to node " + cluster.nodeId(0)));

            Throwable cause = closedByServer.get(15, TimeUnit.SECONDS);
            assertThat(cause).isInstanceOf(Mqtt5DisconnectException.class);
            assertThat(((Mqtt5DisconnectException) cause).getMqttMessage().getReasonCode())
                    .isEqualTo(Mqtt5DisconnectReasonCode.ADMINISTRATIVE_ACTION);
            assertThat(client.getState().isConnected()).isFalse();

            // The console sees it too, once the node has reported the closed connection (a session with expiry 0
            // is then gone: the details answer 404). Each refresh re-renders the panel.
            // The panel may already show the end (no state, offline, or an error without a Refresh button): check
            // first, refresh only while it still shows the connection.
            wait.ignoring(StaleElementReferenceException.class).until(d -> {
                List<WebElement> shown = d.findElements(By.cssSelector("[data-testid=session-state]"));
                if (shown.isEmpty()
                        || shown.get(0).getText().equals("offline")
                        || !d.findElements(By.cssSelector(".error")).isEmpty()) {
                    return true;
                }
                List<WebElement> refresh = d.findElements(By.xpath("//button[text()='Refresh']"));
                if (!refresh.isEmpty()) {
                    refresh.get(0).click();
                }
                return false;
            });
            chromium.screenshot("04-after-disconnect");
        }
    }

    /**
     * A tenant's client publishes; the operator opens Tenants, then the tenant's Usage, and reads the messages and
     * bytes it sent in the hour's row and the totals (the same figures as the admin API, metering's source).
     */
    @Test
    void operator_reads_a_tenants_usage_per_hour() throws Exception {
        String tenant = Clients.id("console-tenant");
        String user = Clients.id("console-user");
        admin("POST", "/api/v1/tenants", "{\"id\": \"" + tenant + "\"}", 201);
        admin(
                "POST",
                "/api/v1/auth/credentials",
                "{\"username\": \"" + user + "\", \"password\": \"pw\", \"tenant\": \"" + tenant
                        + "\", \"publish\": [\"#\"], \"subscribe\": [\"#\"]}",
                201);
        Mqtt5BlockingClient client = Clients.hive5(cluster.mqttPort(1), Clients.id("console-usage"));
        client.connectWith()
                .simpleAuth()
                .username(user)
                .password("pw".getBytes(java.nio.charset.StandardCharsets.UTF_8))
                .applySimpleAuth()
                .send();
        for (int i = 0; i < 3; i++) {
            client.publishWith()
                    .topic("meters/" + i)
                    .qos(com.hivemq.client.mqtt.datatypes.MqttQos.AT_LEAST_ONCE)
                    .payload(new byte[1000])
                    .send();
        }
        client.disconnect();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!admin("GET", "/api/v1/tenants/" + tenant + "/usage", null, 200).contains("\"messagesIn\":3")
                && System.nanoTime() < deadline) {
            Thread.sleep(250);
        }

        try (HeadlessChromium chromium = HeadlessChromium.start(SCREENSHOTS)) {
            ChromeDriver browser = chromium.driver();
            WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(20));
            browser.get(cluster.sessionApiUrl() + "/console/");
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.name("username")));
            browser.findElement(By.name("username")).sendKeys(TributaryCluster.ADMIN_USER);
            browser.findElement(By.name("password")).sendKeys(TributaryCluster.ADMIN_PASSWORD);
            browser.findElement(By.cssSelector("button[type=submit]")).click();

            wait.until(ExpectedConditions.elementToBeClickable(By.linkText("Tenants")))
                    .click();
            wait.until(ExpectedConditions.elementToBeClickable(
                            By.xpath("//tr[td[text()='" + tenant + "']]//a[text()='Usage']")))
                    .click();
            wait.until(ExpectedConditions.textToBePresentInElementLocated(
                    By.cssSelector("[data-testid=usage-total-messages-in]"), "3"));
            assertThat(browser.findElement(By.cssSelector("[data-testid=usage-total-bytes-in]"))
                            .getText())
                    .isEqualTo("2.9 KiB");
            assertThat(browser.findElements(By.cssSelector("tbody tr[data-hour]")))
                    .isNotEmpty();
            chromium.screenshot("05-tenant-usage");
        }
    }

    /** An admin API call with the cluster's admin token; returns the body. */
    private static String admin(String method, String path, String body, int expected) throws Exception {
        java.net.http.HttpResponse<String> response = java.net.http.HttpClient.newHttpClient()
                .send(
                        io.tributary.it.support.AdminRequests.to(cluster.sessionApiUrl(), path)
                                .header("Content-Type", "application/json")
                                .method(
                                        method,
                                        body == null
                                                ? java.net.http.HttpRequest.BodyPublishers.noBody()
                                                : java.net.http.HttpRequest.BodyPublishers.ofString(body))
                                .build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode())
                .as(method + " " + path + " -> " + response.body())
                .isEqualTo(expected);
        return response.body();
    }
}
