// Bundles import node:fs/promises through this file: see infra/cdk/bundling.ts, NODE_BUILTIN_ALIASES.
module.exports = process.getBuiltinModule('node:fs/promises');
