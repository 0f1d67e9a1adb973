/**
 * The stage's AWS WAF web ACL: per-client limits in front of API Gateway's stage throttle, which
 * all clients share. Two rate-based rules count requests over the last minute, one per
 * `Authorization` header value (an API key, or whatever a client sends as one; requests without the
 * header are not counted by it) and one per source IP (every request: keyless floods, the docs);
 * a client over either limit gets a 429 in the service's Error shape straight from WAF, before the
 * gateway throttles or any function runs. WAF's custom response takes precedence over the
 * gateway's WAF_FILTERED response, so that one never answers these.
 */
import { Stack } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { COMMON_RESPONSE_HEADERS } from '#lib/http/response.ts';
import { errorBody } from './gateway-responses.ts';

/**
 * WAF counts each rule's requests over this many seconds (60, 120, 300 or 600): the shortest, so
 * the limits are per minute and a client that stops is let through again soonest.
 */
export const WEB_ACL_WINDOW_SECONDS = 60;

/** Key of the custom response body the rules' Block actions send. */
export const RATE_LIMITED_BODY_KEY = 'too_many_requests';

export const RATE_LIMITED_MESSAGE = 'Too many requests from this client. Slow down and retry after the Retry-After delay.';

export interface WebAclProps {
  readonly stage: Stage;
  /** Requests per minute one `Authorization` value may make. */
  readonly perKeyPerMinute: number;
  /** Requests per minute one source IP may make. */
  readonly perIpPerMinute: number;
  /** Requests per minute one source IP may make to the docs routes. */
  readonly docsPerIpPerMinute: number;
}

export class WebAcl extends Construct {
  readonly webAcl: CfnWebACL;
  /** The metric names WAF reports under (the `WebACL` and `Rule` dimensions): what the dashboard watches. */
  readonly metricName: string;
  readonly ruleMetricNames: readonly string[];

  constructor(scope: Construct, id: string, props: WebAclProps) {
    super(scope, id);
    // The stack's name (one stack per stage); the metric names start with it.
    const name = Stack.of(this).stackName;
    this.metricName = name;
    this.ruleMetricNames = [`${name}-per-source-ip`, `${name}-per-api-key`];
    // Metrics per rule, without sampled requests: a sample would keep the Authorization header.
    const visibility = (metricName: string): CfnWebACL.VisibilityConfigProperty => ({
      cloudWatchMetricsEnabled: true,
      metricName,
      sampledRequestsEnabled: false,
    });
    const block: CfnWebACL.RuleActionProperty = {
      block: {
        customResponse: {
          responseCode: 429,
          customResponseBodyKey: RATE_LIMITED_BODY_KEY,
          // A client that waits one window finds its count below the limit again.
          responseHeaders: Object.entries({ ...COMMON_RESPONSE_HEADERS, 'Retry-After': String(WEB_ACL_WINDOW_SECONDS) }).map(
            ([name, value]) => ({ name, value }),
          ),
        },
      },
    };
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name,
      description: `Per-client rate limits of ${name}`,
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(name),
      customResponseBodies: {
        [RATE_LIMITED_BODY_KEY]: { contentType: 'APPLICATION_JSON', content: errorBody('too_many_requests', RATE_LIMITED_MESSAGE) },
      },
      rules: [
        {
          name: 'per-source-ip',
          priority: 0,
          action: block,
          statement: {
            rateBasedStatement: { aggregateKeyType: 'IP', limit: props.perIpPerMinute, evaluationWindowSec: WEB_ACL_WINDOW_SECONDS },
          },
          visibilityConfig: visibility(`${name}-per-source-ip`),
        },
        {
          name: 'per-api-key',
          priority: 1,
          action: block,
          statement: {
            rateBasedStatement: {
              aggregateKeyType: 'CUSTOM_KEYS',
              customKeys: [{ header: { name: 'authorization', textTransformations: [{ priority: 0, type: 'NONE' }] } }],
              limit: props.perKeyPerMinute,
              evaluationWindowSec: WEB_ACL_WINDOW_SECONDS,
            },
          },
          visibilityConfig: visibility(`${name}-per-api-key`),
        },
      ],
    });
    new CfnWebACLAssociation(this, 'Association', { resourceArn: props.stage.stageArn, webAclArn: this.webAcl.attrArn });
  }
}
