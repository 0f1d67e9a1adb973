/**
 * The functions' memory and time limit, as plain data: the CDK app deploys them (constructs/
 * api-function.ts), and the local API and the benchmarks hand the handlers the Lambda context a
 * deployed function gets, so middy's early timeout fires at the same moment everywhere.
 */

/** 1 GB: Lambda allots CPU in proportion to memory, and the extra CPU shortens the cold start
 * (loading the bundled SDK) far more than it costs at this traffic. */
export const MEMORY_MB = 1024;

/** 10 s: one DynamoDB call with SDK retries takes well under a second; this leaves room for
 * retries and stays far below API Gateway's 29 s integration limit. */
export const TIMEOUT_SECONDS = 10;
