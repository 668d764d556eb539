import { createServer, type RequestListener, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { PostgrestErrorBody } from './postgrest-error.ts';

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
  const [status, reason, message] = describe(error.code);
  const body: PostgrestErrorBody = {
    code: status === 408 ? 'PGRST000' : 'PGRST100',
    message,
    details: null,
    hint: null,
  };
  const payload = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(payload)}\r\n` +
      'Connection: close\r\n\r\n' +
      payload,
  );
}

function describe(code: string | undefined): [number, string, string] {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return [431, 'Request Header Fields Too Large', 'The request headers are too large'];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'Request Timeout', 'The request was not received in time'];
    default:
      return [400, 'Bad Request', 'The request is not valid HTTP'];
  }
}

/** Node marks sockets that already carried part of an answer. */
function socketHasWritten(socket: Duplex): boolean {
  return (
    (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent ===
    true
  );
}
