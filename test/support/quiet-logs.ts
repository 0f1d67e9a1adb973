/** The service's JSON log lines are silenced in tests unless PETSTORE_TEST_LOGS=1; tests that assert on logs capture them with setLogSink. */
import { setLogSink } from '#lib/log.ts';

if (process.env.PETSTORE_TEST_LOGS !== '1') setLogSink(() => undefined);
