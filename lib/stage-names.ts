/**
 * The deployment stages and the CloudFormation stack of each: what the CDK app deploys and what the
 * OpenAPI document lists as servers. Their settings are the CDK app's (infra/cdk/stages.ts).
 */

export const STAGE_NAMES = ['staging', 'production'] as const;
export type StageName = (typeof STAGE_NAMES)[number];

export function isStageName(value: string): value is StageName {
  return (STAGE_NAMES as readonly string[]).includes(value);
}

/** One CloudFormation stack per stage: `PetStore-staging`, `PetStore-production`. */
export function stackName(stage: StageName): string {
  return `PetStore-${stage}`;
}
