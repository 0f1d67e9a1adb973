/**
 * What each operation costs the stacks' own quotas, which grow with the operations and bind before any
 * traffic does: CloudFormation's 500 resources and 1 MB template a stack, and API Gateway's 300 KB
 * mapping template that holds the OpenAPI document (twice: the GET and the HEAD of its route). Each
 * stage's template fits them now, and the room left, in operations at today's cost of one, is printed
 * (docs/scaling.md, "Adding an operation").
 */
import { afterAll, describe, expect, it } from 'vitest';
import { routes } from '#lib/routes.ts';
import { pascal } from '../../infra/cdk/pascal.ts';
import { MAPPING_TEMPLATE_MAX_BYTES, openApiMappingTemplate } from '../../infra/openapi/serve.ts';
import { STAGE_NAMES } from '../../infra/cdk/stages.ts';
import { synth } from './synth.ts';

// CloudFormation quotas (https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/cloudformation-limits.html).
const MAX_RESOURCES = 500;
const MAX_TEMPLATE_BYTES = 1024 * 1024;

const app = synth();
afterAll(() => app.cleanup());

describe.each(STAGE_NAMES)('the %s stack', (stage) => {
  const template = app.templates[stage].toJSON() as { Resources: Record<string, unknown> };
  // What `cdk synth` writes and uploads: JSON indented by one space.
  const bytes = Buffer.byteLength(JSON.stringify(template, undefined, 1));
  const resources = Object.keys(template.Resources).length;
  const documentBytes = Buffer.byteLength(openApiMappingTemplate());
  const dashboards = Object.values(template.Resources).filter((r) => (r as { Type: string }).Type === 'AWS::CloudWatch::Dashboard');
  const dashboardBytes = Buffer.byteLength(JSON.stringify(dashboards, undefined, 1));

  it("fits CloudFormation's and API Gateway's quotas, and says how many operations more would", () => {
    expect(resources).toBeLessThan(MAX_RESOURCES);
    expect(bytes).toBeLessThan(MAX_TEMPLATE_BYTES);
    expect(documentBytes).toBeLessThan(MAPPING_TEMPLATE_MAX_BYTES);
    // One operation's resources are those named after its function; its share of the document (an upper bound:
    // the document's fixed parts counted too) is in the template twice, escaped as a JSON string (about a tenth
    // more); and its share of the dashboard, which draws a row for it.
    const functionIds = [...new Set(routes.map((r) => pascal(r.functionId)))];
    const own = functionIds.map((id) => Object.entries(template.Resources).filter(([logicalId]) => logicalId.includes(id)));
    const perOperation = {
      resources: Math.max(...own.map((r) => r.length)),
      bytes:
        Math.max(...own.map((r) => Buffer.byteLength(JSON.stringify(Object.fromEntries(r), undefined, 1)))) +
        (2.2 * documentBytes + dashboardBytes) / routes.length,
      documentBytes: documentBytes / routes.length,
    };
    const room = {
      resources: Math.floor((MAX_RESOURCES - resources) / perOperation.resources),
      template: Math.floor((MAX_TEMPLATE_BYTES - bytes) / perOperation.bytes),
      document: Math.floor((MAPPING_TEMPLATE_MAX_BYTES - documentBytes) / perOperation.documentBytes),
    };
    console.log(
      `${stage}: ${resources} of ${MAX_RESOURCES} resources, ${Math.round(bytes / 1024)} of 1024 KB template, ` +
        `document ${Math.round(documentBytes / 1024)} of 300 KB; room for about ${Math.min(...Object.values(room))} more operations ` +
        `(resources ${room.resources}, template ${room.template}, document ${room.document})`,
    );
  });
});
