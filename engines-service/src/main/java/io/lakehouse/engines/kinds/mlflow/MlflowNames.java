package io.lakehouse.engines.kinds.mlflow;

/** Names and ports of an MLflow instance's objects. */
final class MlflowNames {

    static final String APP = "mlflow";
    static final String SERVER = "server";
    static final String DATABASE = "database";
    static final String DATABASE_SUFFIX = "-db";
    /** CloudNativePG's Secret of the application user, with the key {@code uri}. */
    static final String DATABASE_APP_SUFFIX = DATABASE_SUFFIX + "-app";
    static final int HTTP_PORT = 5000;

    private MlflowNames() {}

    /** The CloudNativePG Cluster. */
    static String database(String name) {
        return name + DATABASE_SUFFIX;
    }

    static String databaseApp(String name) {
        return name + DATABASE_APP_SUFFIX;
    }
}
