package io.tributary.session.web;

/** Body of every error answer of the internal and admin APIs. */
public record ApiError(String error) {}
