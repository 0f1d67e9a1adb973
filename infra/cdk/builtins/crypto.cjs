// Bundles import node:crypto through this file: see infra/cdk/bundling.ts, NODE_BUILTIN_ALIASES.
module.exports = process.getBuiltinModule('node:crypto');
