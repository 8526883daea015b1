package io.tally.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard in a real browser: headless Chromium (Debian's {@code chromium}) driven by Selenium through the
 * system's {@code chromedriver}, against the whole local pipeline. After the seed scenario the figures on the page
 * equal the read side's, new writes show up without a reload, the browser logs no error, the page fits a phone's
 * width, and screenshots are written to {@code target/} (and, with {@code -Dtally.dashboard.screenshot=PATH}, to
 * PATH: how {@code docs/dashboard.png} is made).
 *
 * <p>Nothing is downloaded: the driver and the browser are given by path, so Selenium Manager never runs.
 */
@Tag("browser")
class DashboardBrowserIT {
    private static final Path CHROMEDRIVER = Path.of(System.getProperty("tally.chromedriver", "/usr/bin/chromedriver"));
    private static final Path CHROMIUM = Path.of(System.getProperty("tally.chromium", "/usr/bin/chromium"));
    private static final Duration PAGE_TIMEOUT = Duration.ofSeconds(60);

    private static LocalRunner runner;
    private static Api api;
    private static ChromeDriver browser;
    private static Path profile;

    @BeforeAll
    static void start() throws Exception {
        assertThat(CHROMEDRIVER).as("chromedriver (apt-get install chromium-driver)").isExecutable();
        assertThat(CHROMIUM).as("chromium (apt-get install chromium)").isExecutable();
        runner = LocalRunner.start(RunnerSettings.ephemeral());
        api = new Api(runner.baseUri());
        new io.tally.local.demo.DemoLoader(runner.domains(), runner.baseUri()).loadSeed();
        runner.awaitDrained(Api.DRAIN_TIMEOUT);

        profile = Files.createTempDirectory("tally-chromium-");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--user-data-dir=" + profile, "--window-size=1280,1900");
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        browser = new ChromeDriver(service, options);
    }

    @AfterAll
    static void stop() throws IOException {
        if (browser != null) {
            browser.quit();
        }
        if (runner != null) {
            runner.close();
        }
        if (profile != null) {
            try (var files = Files.walk(profile)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    @Test
    void dashboard_showsTheReadSidesFigures_updatesLive_logsNoError_andFitsAPhone() throws Exception {
        browser.get(runner.baseUri() + "/dashboard?orgs=" + "abc");
        awaitRefreshAfterNow();

        // The figures on the page are the API's, for every section the seed fills.
        Map<String, String> page = figures();
        Map<String, Long> expected = expectedFigures();
        assertThat(expected).containsKeys("global.users", "global.posts.created", "orgs.abc.employees",
                "selector.back-catalogue.3");
        expected.forEach((figure, value) -> assertThat(parse(page.get(figure))).as(figure).isEqualTo(value));
        assertThat(section("totals").isDisplayed()).isTrue();
        assertThat(section("pipeline").isDisplayed()).as("local pipeline health").isTrue();
        assertThat(section("events").isDisplayed()).as("newest events").isTrue();
        // The subscriber example's feed, filled by the local bus invoking its handler (after PutEvents answered): the
        // page shows the newest entry the read side has (the seed's last steps are favourites, so it is one of theirs).
        new WebDriverWait(browser, PAGE_TIMEOUT).until(driver -> {
            JsonNode newest = api.get("/activity?limit=1").get("items");
            return newest.size() == 1 && section("activity").isDisplayed()
                    && section("activity").getText().contains(newest.get(0).get("detailType").asText());
        });
        assertThat(section("empty").isDisplayed()).as("empty state with data").isFalse();
        // Song downloads are not built on this branch: their sections stay hidden until their routes exist.
        boolean songs = api.get("/dashboard/routes.json").get("routes").toString().contains("/charts/downloads/");
        assertThat(section("top-songs").isDisplayed()).isEqualTo(songs);
        screenshot("dashboard.png", System.getProperty("tally.dashboard.screenshot"));

        // New writes reach the page without a reload.
        long users = api.get("/stats/global").get("users").asLong();
        api.ok("POST", "/users", "{\"userId\":\"browser-1\",\"name\":\"Bea\",\"email\":\"bea@example.com\"}");
        api.ok("POST", "/users/browser-1/posts", "{\"postId\":\"browser-post\",\"title\":\"Seen live\",\"body\":\"x\"}");
        runner.awaitDrained(Api.DRAIN_TIMEOUT);
        assertThat(api.get("/stats/global").get("users").asLong()).isEqualTo(users + 1);
        new WebDriverWait(browser, PAGE_TIMEOUT).until(driver -> parse(figures().get("global.users")) == users + 1);
        awaitRefreshAfterNow();
        Map<String, String> updated = figures();
        expectedFigures().forEach((figure, value) -> assertThat(parse(updated.get(figure))).as(figure).isEqualTo(value));

        // A phone-sized window: one column, nothing wider than the screen.
        browser.manage().window().setSize(new Dimension(390, 844));
        awaitRefreshAfterNow();
        Object overflow = ((JavascriptExecutor) browser).executeScript(
                "return document.documentElement.scrollWidth - document.documentElement.clientWidth;");
        assertThat(((Number) overflow).longValue()).as("horizontal overflow on a phone, in px").isLessThanOrEqualTo(0);
        screenshot("dashboard-phone.png", null);

        List<LogEntry> errors = browser.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(entry -> entry.getLevel().intValue() >= Level.WARNING.intValue()).toList();
        assertThat(errors).as("the browser's console").isEmpty();
    }

    @Test
    void emptyState_saysWhatToDo_whenNothingIsCounted() throws Exception {
        try (LocalRunner empty = LocalRunner.start(RunnerSettings.ephemeral())) {
            browser.get(empty.baseUri() + "/dashboard");
            awaitRefreshAfterNow();
            assertThat(section("empty").isDisplayed()).isTrue();
            assertThat(section("empty").getText()).contains("--demo").contains("curl -XPOST");
            assertThat(parse(figures().get("global.users"))).isZero();
        }
    }

    /** Waits for a refresh of the page that started after this call: its figures are at least as new as now. */
    private static void awaitRefreshAfterNow() {
        new WebDriverWait(browser, PAGE_TIMEOUT).until(driver -> refreshes() >= 1);
        long seen = refreshes();
        new WebDriverWait(browser, PAGE_TIMEOUT).until(driver -> refreshes() >= seen + 2);
    }

    private static long refreshes() {
        return Long.parseLong(browser.findElement(By.tagName("body")).getAttribute("data-refreshes"));
    }

    private static WebElement section(String id) {
        return browser.findElement(By.id(id));
    }

    /**
     * Every figure the page shows, by its {@code data-figure} name, as displayed. Read in one script, on the page's own
     * thread, so that a redraw cannot fall between two figures (or replace an element being read).
     */
    @SuppressWarnings("unchecked")
    private static Map<String, String> figures() {
        Object figures = ((JavascriptExecutor) browser).executeScript("var figures = {};"
                + "document.querySelectorAll('[data-figure]').forEach(function (e) {"
                + "  figures[e.getAttribute('data-figure')] = e.textContent; });"
                + "return figures;");
        return new LinkedHashMap<>((Map<String, String>) figures);
    }

    /** What the read side says the page's figures are. */
    private static Map<String, Long> expectedFigures() {
        Map<String, Long> expected = new LinkedHashMap<>();
        JsonNode global = api.get("/stats/global");
        global.fields().forEachRemaining(field -> {
            if (field.getValue().isNumber()) {
                expected.put("global." + field.getKey(), field.getValue().asLong());
            }
        });
        global.get("posts").fields().forEachRemaining(field ->
                expected.put("global.posts." + field.getKey(), field.getValue().asLong()));
        JsonNode org = api.get("/stats/orgs/" + "abc");
        expected.put("orgs." + "abc" + ".employees", org.get("employees").asLong());
        for (String selector : List.of("back-catalogue", "global-cycle:5")) {
            api.get("/selectors/" + selector + "?limit=5").get("items").forEach(item ->
                    expected.put("selector." + selector + "." + item.get("itemId").asText(), item.get("score").asLong()));
        }
        return expected;
    }

    /** A figure as people read it ("1,234") as a number; fails on anything else. */
    private static long parse(String shown) {
        assertThat(shown).as("a figure on the page").isNotNull().matches("\\d{1,3}(,\\d{3})*");
        return Long.parseLong(shown.replace(",", ""));
    }

    private static void screenshot(String name, String extraCopy) throws IOException {
        byte[] png = browser.getScreenshotAs(OutputType.BYTES);
        Path target = Path.of("target", name);
        Files.createDirectories(target.getParent());
        Files.write(target, png);
        if (extraCopy != null && !extraCopy.isBlank()) {
            Files.write(Path.of(extraCopy), png);
        }
    }
}
