/*
 * Stands in for the Trino image's jvmkill agent (which kills the JVM on resource exhaustion): the server
 * tarball does not ship it, and the generated jvm.config loads it by path. -XX:+ExitOnOutOfMemoryError,
 * also in that jvm.config, still ends a JVM out of memory.
 */
#include <jni.h>

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved) {
  return 0;
}
