// Spectral's OWASP ruleset with its rate-limit rules alone (test/openapi/mock-and-lint.test.ts):
// every 2XX and 4XX declares a rate-limit header, every 429 `Retry-After`.
import owasp from '@stoplight/spectral-owasp-ruleset';

const RULES = ['owasp:api4:2023-rate-limit', 'owasp:api4:2023-rate-limit-retry-after', 'owasp:api4:2023-rate-limit-responses-429'];

export default {
  extends: [[owasp, 'off']],
  rules: Object.fromEntries(RULES.map((rule) => [rule, 'error'])),
};
