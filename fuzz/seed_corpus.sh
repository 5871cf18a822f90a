#!/usr/bin/env bash
# Builds the fuzzers' seed corpora (fuzz/corpus/<target>/) from the project's own rule files
# and test data. The corpora grow as the fuzzers run; they are not committed.
set -euo pipefail
cd "$(dirname "$0")"
root=..
ORACLES=${OKITE_ORACLES:-$root/../shared/shogi-oracles}   # the public test data (not in the project)
c=corpus
mkdir -p $c/{rule_check,rule_eval,sfen,usi_moves,kif,csa,sgf,graph_spec,edge_list,usi_engine,repl_input,mate_batch,lines}
for f in $root/rules/*.rule $root/docs/examples/*.rule; do
  [ -f "$f" ] || continue
  cp "$f" $c/rule_check/; cp "$f" $c/rule_eval/
done
# small definitions from the language reference, one code block a file
awk '/^```okite/{n++; f=sprintf("'$c'/rule_eval/lang-%03d.rule", n); next} /^```/{f=""} f{print > f}' \
  $root/docs/LANGUAGE.md || true
cp $c/rule_eval/lang-*.rule $c/rule_check/ 2>/dev/null || true
i=0
for f in "$ORACLES"/tsume/nshogi/*.sfen; do
  head -n 40 "$f" | while IFS= read -r line; do
    i=$((i+1)); printf '%s' "${line%%#*}" > "$c/sfen/$(basename "$f" .sfen)-$RANDOM$RANDOM"
  done
done
printf 'startpos\n' > $c/sfen/startpos
printf 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1' > $c/sfen/hirate
printf 'startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e' > $c/usi_moves/even
printf 'position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1 moves G*5b' > $c/usi_moves/gold
cp "$ORACLES"/tsume/curated/microcosmos-1525.usi $c/usi_moves/microcosmos
cat > $c/kif/even.kif <<'K'
開始日時：2024/01/01
手合割：平手
先手：A
後手：B
手数----指手---------消費時間--
   1 ７六歩(77)   ( 0:00/00:00:00)
   2 ３四歩(33)   ( 0:00/00:00:00)
   3 ２二角成(88)   ( 0:00/00:00:00)
   4 同　銀(31)   ( 0:00/00:00:00)
   5 ４五角打   ( 0:00/00:00:00)
   6 投了
K
cargo run -q --release --manifest-path $root/Cargo.toml -- show \
  --sfen 'l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1' \
  > $c/kif/diagram.kif 2>/dev/null || true
printf 'V2.2\nN+A\nN-B\nPI\n+\n+7776FU\nT3\n-3334FU,T2\n+8822UM\n-3122GI\n+0045KA\n%%TORYO\n' > $c/csa/even.csa
printf 'P1 *  *  *  *  *  *  *  * -OU\nP2 *  *  *  *  *  *  *  *  * \nP3 *  *  *  *  *  *  *  *  * \nP4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \nP7 *  *  *  *  *  *  *  *  * \nP8 *  *  *  *  *  *  *  *  * \nP9 *  *  *  * +OU *  *  *  * \nP+00KI\nP-00AL\n+\n+0012KI\n' > $c/csa/board.csa
printf '(;FF[4]SZ[3]KM[0.5]AB[aa]AW[cc];B[ba];W[tt];B[ab];W[](;B[bb])(;B[cb]))' > $c/sgf/tree.sgf
printf '(;SZ[4:2]AB[aa:ba];W[db])' > $c/sgf/rect.sgf
printf '(;SZ[2];B[aa];W[bb];B[ba];W[ab])' > $c/sgf/two.sgf
for s in grid:3x3 grid:1x5 path:4 cycle:5 complete:4 star:3 ' grid : 2X2 '; do
  printf '%s' "$s" > "$c/graph_spec/$(echo "$s" | tr -c 'a-z0-9' _)"
done
printf 'vertices a b c\na b\nb c # a path\n' > $c/edge_list/path
printf '1 2\n2 3\n3 1\n' > $c/edge_list/triangle
printf 'usi\nisready\nsetoption name USI_Hash value 16\nusinewgame\nposition sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1\ngo mate 1000\nquit\n' > $c/usi_engine/mate
printf 'position startpos moves 7g7f\ngo mate infinite\nposition sfen garbage\ngo mate abc\nsetoption name MateLength value any\nfoo\n' > $c/usi_engine/errors
printf 'def double(x: Int) -> Int = x * 2\ndouble(21)\n:sfen startpos\n:legal\n:type double\nexample e { assert 1 + 1 == 2 }\n' > $c/repl_input/session
printf 'def f(x: Int) -> Int =\n    x + 1\n\nf(1)\n:moves 7g7f\n:board\n:reading broad\n' > $c/repl_input/continued
printf '4k4/9/4P4/9/9/9/9/9/4K4 b G 1\n# a comment\nstartpos moves 7g7f\nnot an sfen\n' > $c/mate_batch/mixed
printf '\x05ab\ncdefgh\n\nij' > $c/lines/short
echo "seed corpora in fuzz/$c"
