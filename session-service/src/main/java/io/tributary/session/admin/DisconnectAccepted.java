package io.tributary.session.admin;

/** Answer to an admin disconnect: the command was written to the node's downlink topic. */
public record DisconnectAccepted(String clientId, String nodeId, long epoch, int reasonCode) {}
