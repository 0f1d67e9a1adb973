// Bundles import node:child_process through this file: see infra/cdk/bundling.ts, NODE_BUILTIN_ALIASES.
module.exports = process.getBuiltinModule('node:child_process');
