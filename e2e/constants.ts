/** The service key the test server is started with, so tests can read back what was stored. */
export const e2eServiceKey = 'e2e-service-role-key-for-reading-test-rows';
