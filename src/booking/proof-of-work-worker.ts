// A Web Worker that searches one range of a proof-of-work challenge with
// WebCrypto's SHA-256 and posts the number it finds (altcha-lib's v1 worker).
// The build bundles it into one file of its own: it is served with a policy
// that lets it load nothing else.
import 'altcha-lib/v1/worker';
