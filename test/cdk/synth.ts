/**
 * Test helper: synthesises the CDK app the way `cdk synth` does (cdk.json context, cdk-nag on) but
 * without bundling, into a temporary directory that `cleanup()` removes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CfnElement, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { type PetStoreApp, buildApp } from '../../infra/cdk/app.ts';
import { cdkJsonContext, type StageName } from '../../infra/cdk/stages.ts';

export interface Synthesised extends PetStoreApp {
  readonly outdir: string;
  readonly templates: Readonly<Record<StageName, Template>>;
  cleanup(): void;
}

export interface SynthOptions {
  readonly context?: Record<string, unknown>;
  /** Stacks to bundle for real (default none: bundling skipped, as esbuild per function is slow). */
  readonly bundlingStacks?: readonly string[];
}

export function synth(options: SynthOptions = {}): Synthesised {
  const outdir = mkdtempSync(join(tmpdir(), 'petstore-infra-'));
  try {
    const built = buildApp({
      outdir,
      context: {
        ...cdkJsonContext(),
        'aws:cdk:bundling-stacks': options.bundlingStacks ?? [],
        ...options.context,
      },
    });
    // One synthesis of the whole app (cdk-nag runs here and throws on an unacknowledged error).
    const templates = {
      staging: Template.fromStack(built.stacks.staging),
      production: Template.fromStack(built.stacks.production),
    };
    return { ...built, outdir, templates, cleanup: () => rmSync(outdir, { recursive: true, force: true }) };
  } catch (error) {
    rmSync(outdir, { recursive: true, force: true });
    throw error;
  }
}

/** Logical id of an L2 construct's CloudFormation resource, in its stack's template. */
export function logicalId(construct: IConstruct | undefined): string {
  const resource = construct?.node.defaultChild;
  if (!resource || !CfnElement.isCfnElement(resource)) throw new Error(`No CloudFormation resource under ${construct?.node.path}`);
  return Stack.of(construct).getLogicalId(resource);
}

type Resources = Record<string, { Type: string; Properties?: Record<string, unknown>; [key: string]: unknown }>;

/** The template's resources of one type, by logical id. */
export function resourcesOf(template: Template, type: string): Resources {
  return template.findResources(type) as Resources;
}
