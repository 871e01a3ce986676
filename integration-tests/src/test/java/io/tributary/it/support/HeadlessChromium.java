package io.tributary.it.support;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's {@code chromium} driven through its {@code chromedriver} (apt packages {@code chromium} and
 * {@code chromium-driver}; {@code .ci/run} installs them when absent). Both paths are given to Selenium, so its
 * Selenium Manager never looks for, or downloads, a browser or a driver.
 */
public final class HeadlessChromium implements AutoCloseable {

    public static final Path CHROMIUM = Path.of(System.getProperty("tributary.chromium", "/usr/bin/chromium"));
    public static final Path CHROMEDRIVER =
            Path.of(System.getProperty("tributary.chromedriver", "/usr/bin/chromedriver"));

    private final ChromeDriver driver;
    private final Path profile;
    private final Path screenshots;

    private HeadlessChromium(ChromeDriver driver, Path profile, Path screenshots) {
        this.driver = driver;
        this.profile = profile;
        this.screenshots = screenshots;
    }

    /**
     * A fresh headless browser (new profile directory) whose screenshots go to {@code screenshots}. Skips the calling
     * test, saying why and how to install them, when chromium or chromedriver is not installed.
     */
    public static HeadlessChromium start(Path screenshots) throws IOException {
        Assumptions.assumeTrue(
                Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "SKIPPED: headless Chromium is not installed (" + CHROMIUM + ", " + CHROMEDRIVER
                        + "): run 'apt-get install -y chromium chromium-driver' (.ci/run does) to run this test");
        Files.createDirectories(screenshots);
        Path profile = Files.createTempDirectory("tributary-chromium-");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments(
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
                "--window-size=1400,900",
                "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .withLogFile(screenshots.resolve("chromedriver.log").toFile())
                .build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
        return new HeadlessChromium(driver, profile, screenshots);
    }

    public ChromeDriver driver() {
        return driver;
    }

    /** Saves the page as {@code <name>.png} under the screenshot directory and returns the file. */
    public Path screenshot(String name) throws IOException {
        File shot = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
        Path target = screenshots.resolve(name + ".png");
        Files.copy(shot.toPath(), target, StandardCopyOption.REPLACE_EXISTING);
        return target;
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            deleteQuietly(profile);
        }
    }

    private static void deleteQuietly(Path dir) {
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder())
                    .forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary profile left behind is harmless
        }
    }
}
