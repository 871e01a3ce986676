package io.tributary.session.adminauth;

/** A stored admin user of the REST API. */
public record AdminUser(long id, String username, String passwordHash) {

    @Override
    public String toString() {
        return "AdminUser[id=" + id + ", username=" + username + "]";
    }
}
