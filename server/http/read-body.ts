import type { IncomingMessage } from 'node:http';
import { payloadTooLarge } from './api-errors.ts';

/** The client went away before sending its whole request; there is no one to answer. */
export class ClientGoneError extends Error {
  constructor() {
    super('The client closed the connection before sending the whole request.');
    this.name = 'ClientGoneError';
  }
}

/**
 * Reads a request body of at most `limit` bytes. A larger body is refused from
 * its Content-Length before any of it is read, or as soon as a chunked body
 * passes the limit; the rest is never held in memory.
 */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) throw payloadTooLarge(limit);

  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
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
