// Settings live in infra/cdk/stages.ts.

export const STAGE_NAMES = ['staging', 'production'] as const;
export type StageName = (typeof STAGE_NAMES)[number];

export function isStageName(value: string): value is StageName {
  return (STAGE_NAMES as readonly string[]).includes(value);
}

export function stackName(stage: StageName): string {
  return `PetStore-${stage}`;
}
