import { createServer, STATUS_CODES, type RequestListener, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { headersTooLarge, malformedRequest, requestTimeout } from './api-errors.ts';

/**
 * The HTTP server with the project's limits on time and size, and errors that
 * Node answers itself (an unparsable request, headers too large, a request too
 * slow) in PostgREST's JSON shape like every other error of the API.
 */
export function createHttpServer(
  listener: RequestListener,
  timeouts: { requestMs: number; headersMs: number; checkEveryMs?: number } = {
    requestMs: 30_000,
    headersMs: 20_000,
  },
): Server {
  const server = createServer(
    {
      maxHeaderSize: 16 * 1024,
      // A client must send its whole request within these; slow senders cannot hold sockets.
      requestTimeout: timeouts.requestMs,
      headersTimeout: timeouts.headersMs,
      connectionsCheckingInterval: timeouts.checkEveryMs ?? 5_000,
    },
    listener,
  );
  server.keepAliveTimeout = 5_000;
  server.on('clientError', answerClientError);
  return server;
}

function answerClientError(error: NodeJS.ErrnoException, socket: Duplex) {
  // A reset or a half-written answer leaves nobody to answer.
  if (error.code === 'ECONNRESET' || !socket.writable || socketHasWritten(socket)) {
    socket.destroy();
    return;
  }
  const { status, body } =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? headersTooLarge()
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? requestTimeout()
        : malformedRequest();
  const payload = JSON.stringify(body);
  // No response object exists yet: the answer is written on the socket itself.
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      'X-Content-Type-Options: nosniff\r\n' +
      `Content-Length: ${Buffer.byteLength(payload)}\r\n` +
      'Connection: close\r\n\r\n' +
      payload,
  );
}

/** Node marks sockets that already carried part of an answer. */
function socketHasWritten(socket: Duplex): boolean {
  return (
    (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent ===
    true
  );
}
