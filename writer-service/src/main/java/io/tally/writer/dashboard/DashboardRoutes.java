package io.tally.writer.dashboard;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tally.core.domain.DashboardSection;
import io.tally.core.domain.Domain;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.http.Access;
import io.tally.core.http.ApiException;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Json;
import io.tally.core.http.Router;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * {@code GET /dashboard}: a page for a person, with its script and style sheet ({@code /dashboard/<file>}), the
 * list of the routes it may read ({@code /dashboard/routes.json}) and the sections the domains declare
 * ({@code /dashboard/sections.json}, {@link Domain#dashboard}, in the registry's order). Served by the writer function,
 * so the deployed API has it too; the page reads only the read side, in the browser, every few seconds.
 *
 * <p>The files are read from the class path once, when the routes are registered: the page costs the function no
 * I/O per request, and a file missing from the jar fails the start instead of a visitor's request. The route list
 * lets the page show a section only when its routes exist (song downloads, favourites, the local runner's
 * {@code /metrics} and {@code /events}) without asking for one that would answer 404, which a browser reports as a
 * console error. The page names no domain: it draws each section from its declaration, one renderer a kind.
 */
public final class DashboardRoutes {
    /** The element ids of the page's own parts, which no section may take. */
    private static final Set<String> PAGE_IDS = Set.of("empty", "sections", "pipeline", "activity", "events", "live",
            "status");

    /** The files under {@code /dashboard/}, by name, with their content types; nothing else is served. */
    private static final Map<String, String> FILES = Map.of(
            "index.html", "text/html; charset=utf-8",
            "dashboard.js", "text/javascript; charset=utf-8",
            "dashboard.css", "text/css; charset=utf-8");

    private final Map<String, ApiResponse> files;
    private final Router router;
    private final ApiResponse sections;

    private DashboardRoutes(Map<String, ApiResponse> files, Router router, ApiResponse sections) {
        this.files = files;
        this.router = router;
        this.sections = sections;
    }

    /**
     * Adds the dashboard's routes, with the sections of {@code domains}; call it after every other route, so that the
     * route list holds them all.
     *
     * @throws IllegalStateException when two domains' sections take one id, or one takes an id of the page's own
     */
    public static void register(Router router, DomainRegistry domains) {
        Map<String, ApiResponse> files = new HashMap<>();
        FILES.forEach((name, type) -> files.put(name, ApiResponse.text(type, read(name))
                // Revalidated on every load: a deployment's new page is seen at once, and the files are small.
                .withHeader("Cache-Control", "no-cache")));
        ApiResponse sections = ApiResponse.ok(sections(domains)).withHeader("Cache-Control", "no-cache");
        DashboardRoutes routes = new DashboardRoutes(Map.copyOf(files), router, sections);
        router.add("GET", "/dashboard", Access.READ_SIDE, request -> routes.files.get("index.html"))
                .add("GET", "/dashboard/routes.json", Access.READ_SIDE, routes::routeList)
                .add("GET", "/dashboard/sections.json", Access.READ_SIDE, request -> routes.sections)
                .summary("The dashboard's sections as the domains declare them, in the registry's order")
                .add("GET", "/dashboard/{file}", Access.READ_SIDE, routes::file);
    }

    /**
     * {@code {"sections": [{"domain", "kind", "id", "title", "route", "path", ...}]}}: every domain's sections, in the
     * registry's order, each with its domain's name.
     */
    static ObjectNode sections(DomainRegistry domains) {
        ObjectNode body = Json.object();
        ArrayNode list = body.putArray("sections");
        Map<String, String> owners = new HashMap<>();
        for (Domain domain : domains.domains()) {
            for (DashboardSection section : domain.dashboard()) {
                // The Totals card is every domain's; any other card is one section's.
                if (section.kind() != DashboardSection.Kind.TOTALS) {
                    if (PAGE_IDS.contains(section.id())) {
                        throw invalid(domain, section, "is the id of one of the page's own parts");
                    }
                    String owner = owners.putIfAbsent(section.id(), domain.name());
                    if (owner != null) {
                        throw invalid(domain, section, "is taken by a section of the domain '" + owner + "'");
                    }
                }
                ObjectNode node = list.addObject().put("domain", domain.name());
                node.setAll(Json.tree(section));
            }
        }
        return body;
    }

    private static IllegalStateException invalid(Domain domain, DashboardSection section, String why) {
        return new IllegalStateException("domain '" + domain.name() + "': the id '" + section.id()
                + "' of its dashboard section " + why);
    }

    ApiResponse file(ApiRequest request) {
        ApiResponse file = files.get(request.pathParameters().get("file"));
        if (file == null || "index.html".equals(request.pathParameters().get("file"))) {
            throw ApiException.notFound("no such dashboard file");
        }
        return file;
    }

    ApiResponse routeList(ApiRequest request) {
        ObjectNode body = Json.object();
        router.describe().forEach(body.putArray("routes")::add);
        return ApiResponse.ok(body).withHeader("Cache-Control", "no-store");
    }

    private static String read(String name) {
        String path = "/dashboard/" + name;
        try (InputStream in = DashboardRoutes.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("the dashboard's " + path + " is not on the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the dashboard's " + path, e);
        }
    }
}
