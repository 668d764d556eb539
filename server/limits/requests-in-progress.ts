/**
 * The API requests each client network has in progress, at most `maxPerClient`
 * at once. A client that opens many connections and sends slowly then holds
 * a few places of its own, never the server's. Networks with none in progress
 * are forgotten, so memory follows the open connections.
 */
export function createRequestsInProgress(maxPerClient: number) {
  const counts = new Map<string, number>();
  return {
    /** Takes a place for `client`'s request; false when it has none left. */
    tryStart(client: string) {
      const count = counts.get(client) ?? 0;
      if (count >= maxPerClient) return false;
      counts.set(client, count + 1);
      return true;
    },
    /** Frees the place of one of `client`'s requests. */
    finish(client: string) {
      const count = (counts.get(client) ?? 0) - 1;
      if (count > 0) counts.set(client, count);
      else counts.delete(client);
    },
    /** Networks with a request in progress, for tests of the memory bound. */
    get size() {
      return counts.size;
    },
  };
}
