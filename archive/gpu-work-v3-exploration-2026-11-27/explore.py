# Exploratory (in sample, every graph left out in turn) on archive/holdout-h100-2026-11-27: which floor form
# explains its device cells? Usage: python explore.py C_BYTES logo  (run from the repository root)
import glob, json, sys
import numpy as np, pandas as pd
from scipy.optimize import least_squares, nnls
A = 'archive/holdout-h100-2026-11-27'
C_L2 = float(sys.argv[1]) if len(sys.argv) > 1 else 50 * 2**20
cells = pd.read_csv(f'{A}/holdout_cells.csv'); cells = cells[cells['mode'] == 'device'].reset_index(drop=True)
meta = {p.split('/')[-1].split('.')[0]: json.load(open(p)) for p in glob.glob(f'{A}/session/graphs/*.w8.json')}
L = pd.concat([pd.read_csv(p) for p in glob.glob(f'{A}/workloads/*/launches.csv.gz')])
WORK = ['graph', 'algorithm', 'variant', 'edge_bytes', 'root']
RB = {'bfs': 4, 'sssp': 4, 'pagerank': 4}
def mu(g, a, w):
    F = meta[g]['num_vertices'] * (RB.get(a) or 8)
    return max(0.0, 1 - C_L2 / F)
cells['cell'] = np.arange(len(cells))
rows = L.merge(cells[WORK + ['cell']], on=WORK)
rows['mu'] = [mu(g, a, w) for g, a, w in zip(rows.graph, rows.algorithm, rows.edge_bytes)]
# per-launch columns: one, grid, lists, entries, mu*entries, walk
X = np.stack([np.ones(len(rows)), rows.grid, rows.lists, rows.entries, rows['mu'] * rows.entries, rows.walk], 1).astype(float)
def pred(p, Xl, cl, n, form):
    a, b, pl, c, m, s = p
    thr = b * Xl[:, 1] + pl * Xl[:, 2] + c * Xl[:, 3] + m * Xl[:, 4]
    per = a + (np.maximum(thr, s * Xl[:, 5]) if form == 'max' else thr + s * Xl[:, 5])
    return np.bincount(cl, weights=per, minlength=n)
def fit(Xl, cl, y, use):
    n = len(y)
    tot = np.stack([np.bincount(cl, weights=Xl[:, j], minlength=n) for j in range(6)], 1) / y[:, None]
    use = use & (tot.max(0) > 0)
    unit = np.where(use, 1 / np.maximum(tot.max(0), 1e-300), 0.0)  # p = z * unit
    z = np.zeros(6); z[use], _ = nnls((tot * unit)[:, use], np.ones(n))
    def res(q):
        p = np.zeros(6); p[use] = q * unit[use]; return pred(p, Xl, cl, n, 'max') / y - 1
    starts = [z[use]]
    for j in np.flatnonzero(use):
        solo = z.copy(); solo[j] = min(np.median(1 / np.maximum(tot[:, j] * unit[j], 1e-9)), 1e3); starts.append(solo[use])
    best = None
    for q0 in starts:
        r = least_squares(res, np.maximum(q0, 0), bounds=(0, np.inf))
        if best is None or r.cost < best.cost: best = r
    p = np.zeros(6); p[use] = best.x * unit[use]; return p
FORMS = {'v2 (b,c,s; a frontier)': [0, 1, 0, 1, 0, 1], 'v2+a': [1, 1, 0, 1, 0, 1], '+a+lists': [1, 1, 1, 1, 0, 1],
         '+a+mu': [1, 1, 0, 1, 1, 1], 'v3 (+a+lists+mu)': [1, 1, 1, 1, 1, 1]}
mode = sys.argv[2] if len(sys.argv) > 2 else 'logo'
out = []
for name, use in FORMS.items():
    use = np.array(use, bool)
    for key, grp in cells.groupby(['algorithm', 'variant', 'edge_bytes']):
        if name.startswith('v2 (') and key[1] == 'frontier': use = np.array([1, 1, 0, 1, 0, 1], bool)
        graphs = grp.graph.unique()
        for held in (graphs if mode == 'logo' else ['-']):
            if mode == 'logo':
                tr, te = grp[grp.graph != held], grp[grp.graph == held]
            elif mode == 'v3split':
                te = grp[grp.graph.isin(['kron23', 'urand23'])]; tr = grp[~grp.graph.isin(['kron23', 'urand23'])]
            else:
                tr = te = grp
            def sub(g):
                idx = {c: i for i, c in enumerate(g.cell)}; r = rows[rows.cell.isin(idx)]
                return X[r.index.to_numpy()] if False else X[rows.cell.isin(idx).to_numpy()], r.cell.map(idx).to_numpy(), len(g)
            Xt, ct, nt = sub(tr); p = fit(Xt, ct, tr.measured_ms.to_numpy(float), use)
            Xe, ce, ne = sub(te); e = pred(p, Xe, ce, ne, 'max') / te.measured_ms.to_numpy(float) - 1
            out += [{'form': name, 'algorithm': key[0], 'variant': key[1], 'w': key[2], 'graph': g, 'err': x} for g, x in zip(te.graph, e)]
o = pd.DataFrame(out); o['abs'] = o.err.abs()
pd.set_option('display.width', 250)
print(f'C_L2={C_L2/2**20:.0f} MiB, mode={mode}')
print(o.groupby(['form', 'algorithm']).abs.agg(['median', 'max']).unstack().round(3).to_string())
print(o.groupby('form').abs.agg(['median', 'max', lambda s: (s <= .15).mean()]).round(3).to_string())
print(o.groupby(['form', 'graph']).err.median().unstack().round(2).to_string())
v = o[o.form.str.startswith('v3')]
print(v.groupby(['algorithm', 'variant', 'w']).abs.agg(['median', 'max']).round(3).to_string())
print(v.sort_values('abs').tail(12).to_string())
