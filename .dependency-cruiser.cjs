// Cycles, between files and between folders (docs/decisions/045-layers.md): `npm run lint` fails on
// either. Which layer may import which is ESLint's boundaries rule (eslint.config.js).
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-file-cycle',
      comment: 'A module that imports itself through others loads half-made: the order of its imports decides what works.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-folder-cycle',
      comment: 'Two folders that import each other are one concern in two places: move the piece that closes the circle to its home.',
      severity: 'error',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: ['node_modules'] },
    exclude: { path: ['^app/generated/', '^node_modules/'] },
    tsConfig: { fileName: 'tsconfig.json' },
    // Type-only imports couple folders as much as any: they count.
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] },
    // Folder rules need the folders' metrics.
    metrics: true,
  },
}
