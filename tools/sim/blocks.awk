# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The simulator's block table: for every basic block of the instrumented
# lib/ and vfs/ code (each begins with a call to __sanitizer_cov_trace_pc,
# -fsanitize-coverage=trace-pc), how many of its instructions the
# uninstrumented code would execute. Input: `objdump -d --no-show-raw-insn`
# of tools/vfslab-sim. Output: one "ADDRESS COUNT" line per block, the
# address being the cov call's return address (link-time, hex).
#
# What the instrumentation added is not counted: the cov call itself, each
# __tsan_* call and the argument set-up just before it (moves into the
# argument registers). A __tsan_atomic* call stands for the one locked
# instruction it replaced, so it counts one. Padding (nop) never runs.

function flush() {
	if (open_block)
		printf "%s %d\n", start, count < 1 ? 1 : count
	open_block = 0
}

# Instruction lines: "  4b:	mov    %rbx,%rdi"
/^ *[0-9a-f]+:\t/ {
	split($0, parts, "\t")
	addr = parts[1]
	sub(/^ +/, "", addr)
	sub(/:$/, "", addr)
	insn = parts[2]
	if (insn ~ /^call .*<__sanitizer_cov_trace_pc>/) {
		flush()
		# Two hook calls in a row: the first block is empty.
		if (pending)
			printf "%s 0\n", addr
		pending = 1 # the block starts at the next instruction
		setup = 0
		next
	}
	if (pending) {
		start = addr
		count = 0
		setup = 0
		open_block = 1
		pending = 0
	}
	if (!open_block)
		next
	if (insn ~ /^(nop|xchg +%ax,%ax|cs nopw|data16|int3)/)
		next
	if (insn ~ /<__tsan_/) {
		# Drop the argument set-up counted just before the call.
		count -= setup
		if (insn ~ /<__tsan_atomic/ && insn !~ /signal_fence/)
			count++
		setup = 0
		next
	}
	count++
	# A move into an argument register may be set-up for a __tsan_ call.
	if (insn ~ /^(mov|lea|xor)[a-z]* +[^,]*,%(rdi|edi|rsi|esi|rdx|edx|rcx|ecx|r8d?|r9d?)$/ || insn ~ /^xor +%e(si|dx|cx),%e(si|dx|cx)$/)
		setup++
	else
		setup = 0
	if (insn ~ /^(jmp|j[a-z]+ |ret|ud2|hlt)/) {
		flush()
	}
	next
}

# A new function: a block never runs across it.
/^[0-9a-f]+ <.*>:$/ {
	flush()
	pending = 0
}

END {
	flush()
}
