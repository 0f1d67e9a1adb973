// Bundles import node:path through this file: see infra/cdk/bundling.ts, NODE_BUILTIN_ALIASES.
module.exports = process.getBuiltinModule('node:path');
