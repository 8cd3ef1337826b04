package io.lakehouse.common.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Who is allowed everything. */
@ConfigMapping(prefix = "lakehouse.security")
public interface SecuritySettings {

    /**
     * {@code lakehouse.security.platform-admin-group}, default {@code /platform-admins}: every role everywhere.
     * A full group path (tokens carry full paths), so a group of the same name under another parent, e.g.
     * {@code /other/platform-admins}, grants nothing.
     */
    @WithDefault("/platform-admins")
    String platformAdminGroup();
}
