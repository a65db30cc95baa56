package org.blockfilter.regtest.harness;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import org.blockfilter.regtest.RegtestNode;
import org.blockfilter.regtest.internal.RpcNode;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * Prints the log tail of every node held in a field of the failing test (instance or static)
 * before rethrowing the failure, so a red test shows what the node said. Register with
 * {@code @ExtendWith(NodeLogOnFailure.class)}.
 */
public final class NodeLogOnFailure implements TestExecutionExceptionHandler {

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        Object instance = context.getTestInstance().orElse(null);
        for (Class<?> c = context.getRequiredTestClass(); c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (!RpcNode.class.isAssignableFrom(f.getType()) && !RegtestNode.class.isAssignableFrom(f.getType())) {
                    continue;
                }
                boolean isStatic = Modifier.isStatic(f.getModifiers());
                if (!isStatic && instance == null) {
                    continue;
                }
                f.setAccessible(true);
                Object node = f.get(isStatic ? null : instance);
                if (node instanceof RpcNode rpcNode) {
                    System.err.println("=== " + context.getDisplayName() + " failed; last lines of " + rpcNode
                            + " ===\n" + rpcNode.logTail());
                }
            }
        }
        throw failure;
    }
}
