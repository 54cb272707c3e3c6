// Dumps index.scip occurrences as TSV: path, line (1-based), definition (0/1), symbol.
const fs = require('fs');
const { scip } = require(process.env.SCIP_JS || (process.env.HOME + '/scip/node_modules/@sourcegraph/scip-typescript/dist/src/scip.js'));
const idx = scip.Index.deserializeBinary(fs.readFileSync(process.argv[2]));
const out = [];
for (const doc of idx.documents) {
  for (const o of doc.occurrences) {
    if (!o.symbol || o.symbol.startsWith('local ')) continue;
    const def = (o.symbol_roles & 1) ? 1 : 0;
    out.push(`${doc.relative_path}\t${o.range[0] + 1}\t${def}\t${o.symbol}`);
  }
}
fs.writeFileSync(process.argv[3], out.join('\n') + '\n');
console.error(`${idx.documents.length} documents, ${out.length} occurrences`);
