extends RefCounted
## What a verifier check found wrong: every check script writes its problems here (through
## check_base.gd), and verify.gd reads and clears them after each check.

var problems: Array[String] = []


func expect(condition: bool, what: String) -> void:
	if not condition:
		problems.append(what)


## Equal values of the same type (so that 1 and 1.0, or null and an empty object, differ).
func expect_eq(actual: Variant, expected: Variant, what: String) -> void:
	if typeof(actual) != typeof(expected) or actual != expected:
		problems.append("%s: expected %s, got %s" % [what, var_to_str(expected), var_to_str(actual)])
