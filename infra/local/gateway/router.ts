// Literal before `{param}`, greedy `{name+}` last; empty segments ignored (docs/behaviour.md).
import type { ApiMethod, ApiResource } from './template.ts';

export interface ResourceMatch {
  readonly resource: ApiResource;
  readonly pathParameters: Record<string, string> | null;
}

export function matchPath(root: ApiResource, path: string): ResourceMatch | undefined {
  const segments = path.split('/').filter((segment) => segment !== '');
  const params: Record<string, string> = {};
  const resource = descend(root, segments, params);
  if (!resource) return undefined;
  return { resource, pathParameters: Object.keys(params).length > 0 ? params : null };
}

function descend(node: ApiResource, segments: readonly string[], params: Record<string, string>): ApiResource | undefined {
  if (segments.length === 0) return node;
  const [segment, ...rest] = segments as [string, ...string[]];
  const literal = node.children.find((child) => child.pathPart === segment);
  const found = literal && descend(literal, rest, params);
  if (found) return found;
  for (const child of node.children) {
    const name = /^\{([^}+]+)\}$/.exec(child.pathPart)?.[1];
    if (!name) continue;
    const below = descend(child, rest, params);
    if (below) {
      params[name] = segment;
      return below;
    }
  }
  const greedy = node.children.find((child) => /^\{[^}]+\+\}$/.test(child.pathPart));
  if (greedy) {
    params[greedy.pathPart.slice(1, -2)] = segments.join('/');
    return greedy;
  }
  return undefined;
}

export function methodFor(resource: ApiResource, httpMethod: string): ApiMethod | undefined {
  return resource.methods.get(httpMethod) ?? resource.methods.get('ANY');
}
