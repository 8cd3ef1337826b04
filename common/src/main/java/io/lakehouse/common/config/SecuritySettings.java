package io.lakehouse.common.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Who is allowed everything. */
@ConfigMapping(prefix = "lakehouse.security")
public interface SecuritySettings {

    /** {@code lakehouse.security.platform-admin-group}, default {@code platform-admins}: every role everywhere. */
    @WithDefault("platform-admins")
    String platformAdminGroup();
}
