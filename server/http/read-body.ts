import type { IncomingMessage } from 'node:http';
import { bodyTimeout, payloadTooLarge } from './api-errors.ts';

/** The client went away before sending its whole request; there is no one to answer. */
export class ClientGoneError extends Error {
  constructor() {
    super('The client closed the connection before sending the whole request.');
    this.name = 'ClientGoneError';
  }
}

/**
 * Each request's body, read once. The server reads a whole body before it
 * counts the request as one it is handling (app.ts), so that a client sending
 * slowly holds no place that others need; the handler's own read then finds
 * the body already here.
 */
const bodies = new WeakMap<IncomingMessage, Promise<Buffer>>();

/**
 * Reads a request body of at most `limit` bytes. A larger body is refused from
 * its Content-Length before any of it is read, or as soon as a chunked body
 * passes the limit; the rest is never held in memory. With `timeoutMs`, a body
 * not complete by then is refused (408). Later calls for the same request
 * answer the same body.
 */
export async function readBody(
  req: IncomingMessage,
  limit: number,
  options: { timeoutMs?: number } = {},
): Promise<Buffer> {
  let body = bodies.get(req);
  if (body === undefined) {
    body = receiveBody(req, limit, options.timeoutMs);
    bodies.set(req, body);
  }
  const received = await body;
  if (received.length > limit) throw payloadTooLarge(limit);
  return received;
}

function receiveBody(
  req: IncomingMessage,
  limit: number,
  timeoutMs: number | undefined,
): Promise<Buffer> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) {
    return Promise.reject(payloadTooLarge(limit));
  }

  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            cleanup();
            reject(bodyTimeout(timeoutMs));
          }, timeoutMs);
    const cleanup = () => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onGone);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        // Discard the rest while the answer goes out; the connection then closes.
        req.resume();
        reject(payloadTooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onGone = () => {
      cleanup();
      reject(new ClientGoneError());
    };
    const onClose = () => {
      if (!req.complete) onGone();
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onGone);
    req.on('close', onClose);
  });
}
