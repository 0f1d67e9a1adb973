// Plain data, so local mode and the benchmarks give handlers the deployed Lambda context.

/** 1 GB: Lambda allots CPU in proportion to memory, and the extra CPU shortens the cold start
 * (loading the bundled SDK) far more than it costs at this traffic. */
export const MEMORY_MB = 1024;

/** 10 s: one DynamoDB call with SDK retries takes well under a second; this leaves room for
 * retries and stays far below API Gateway's 29 s integration limit. */
export const TIMEOUT_SECONDS = 10;
