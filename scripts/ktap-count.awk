# Count KTAP results: leaf "ok N desc", "not ok N desc", "ok N desc # SKIP why".
#
# Lines may be indented (nested subtests, KTAP style: a subtest's results are
# indented below and printed before the parent's summary line). Only leaves
# count: a result line that closes a block of deeper-indented results is a
# parent and is not counted, except that a parent "not ok" whose children all
# passed counts as one failure (a suite that died without saying why).
#
# With -v checkplan=1, a top-level plan "1..N" that does not match the number
# of top-level result lines counts as one failure (a script that died early).
#
# Output: "FAIL <line>" for each failed leaf, "PLAN <msg>" on a plan mismatch,
# then a last line "COUNTS <passed> <failed> <skipped>".
function indent_of(s,    t) {
	t = s
	gsub(/\t/, "        ", t)
	match(t, /^ */)
	return RLENGTH
}
BEGIN { passed = 0; failed = 0; skipped = 0; plan = -1; top = 0; mind = -1 }
{ sub(/\r$/, "") }
/^[ \t]*1\.\.[0-9]+[ \t]*$/ {
	d = indent_of($0)
	if (mind < 0 || d <= mind) {
		# Outermost plan seen so far.
		if (d < mind || mind < 0) { mind = d; plan = -1 }
		p = $0; gsub(/[ \t]|1\.\./, "", p)
		if (plan < 0) plan = p + 0; else plan += p	# several scripts' plans add up
	}
	next
}
/^[ \t]*(not ok|ok)[ \t]+[0-9]+([ \t]|$)/ {
	d = indent_of($0)
	line = $0
	sub(/^[ \t]+/, "", line)
	bad = (line ~ /^not ok/)
	isskip = (line ~ /#[ \t]*[Ss][Kk][Ii][Pp]/)
	kids = 0; kidfail = 0
	for (k in pend) if (k + 0 > d) {
		kids = 1
		if (pendfail[k]) kidfail = 1
		delete pend[k]; delete pendfail[k]
	}
	if (kids) {
		if (bad && !kidfail) { failed++; print "FAIL " line }
	} else if (isskip && !bad) {
		skipped++
	} else if (bad) {
		failed++; print "FAIL " line
	} else {
		passed++
	}
	pend[d] = 1
	if (bad || kidfail) pendfail[d] = 1
	if (mind < 0 || d <= mind) { if (d < mind) top = 0; mind = d; top++ }
	next
}
END {
	if (checkplan && plan >= 0 && top != plan) {
		failed++
		print "PLAN planned " plan " results, saw " top
	}
	print "COUNTS " passed " " failed " " skipped
}
