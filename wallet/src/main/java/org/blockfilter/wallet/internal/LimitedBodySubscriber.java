package org.blockfilter.wallet.internal;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * Collects a response body into a byte array but gives up, cancelling the stream, as soon as it
 * grows past a limit (or the declared Content-Length does), so a lying server cannot make the
 * wallet buffer an unbounded body.
 */
public final class LimitedBodySubscriber implements HttpResponse.BodySubscriber<byte[]> {

    /** The body was larger than allowed. */
    public static final class TooLargeException extends IOException {
        TooLargeException(long limit) {
            super("response body larger than " + limit + " bytes");
        }
    }

    private final long limit;
    private final boolean declaredTooLarge;
    private final CompletableFuture<byte[]> result = new CompletableFuture<>();
    private final List<ByteBuffer> buffers = new ArrayList<>();
    private long received;
    private Flow.Subscription subscription;

    private LimitedBodySubscriber(long limit, boolean declaredTooLarge) {
        this.limit = limit;
        this.declaredTooLarge = declaredTooLarge;
    }

    /** A handler whose body limit may depend on the status (errors get a small one). */
    public static HttpResponse.BodyHandler<byte[]> handler(long okLimit, long errorLimit) {
        return info -> {
            long limit = info.statusCode() == 200 ? okLimit : errorLimit;
            long declared = info.headers().firstValueAsLong("Content-Length").orElse(-1);
            return new LimitedBodySubscriber(limit, declared > limit);
        };
    }

    @Override
    public CompletionStage<byte[]> getBody() {
        return result;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        subscription = s;
        if (declaredTooLarge) {
            s.cancel();
            result.completeExceptionally(new TooLargeException(limit));
            return;
        }
        s.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> items) {
        if (result.isDone()) {
            return;
        }
        for (ByteBuffer b : items) {
            received += b.remaining();
            if (received > limit) {
                buffers.clear();
                subscription.cancel();
                result.completeExceptionally(new TooLargeException(limit));
                return;
            }
            buffers.add(b);
        }
    }

    @Override
    public void onError(Throwable t) {
        buffers.clear();
        result.completeExceptionally(t);
    }

    @Override
    public void onComplete() {
        if (result.isDone()) {
            return;
        }
        byte[] out = new byte[(int) received];
        int off = 0;
        for (ByteBuffer b : buffers) {
            int n = b.remaining();
            b.get(out, off, n);
            off += n;
        }
        buffers.clear();
        result.complete(out);
    }
}
