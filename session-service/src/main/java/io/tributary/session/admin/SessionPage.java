package io.tributary.session.admin;

import java.util.List;

/** @param total number of sessions matching the filter, over all pages */
public record SessionPage(List<SessionView> items, int page, int size, long total) {}
