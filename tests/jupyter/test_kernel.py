"""The protocol conformance suite (jupyter_kernel_test) run against gcalc."""
import unittest

import jupyter_kernel_test as jkt


class GcalcKernelTests(jkt.KernelTests):
    kernel_name = "gcalc"
    language_name = "gcalc"
    file_extension = ".gcalc"

    code_hello_world = 'print("hello, world")'
    code_stderr = 'eprint("something went wrong")'

    completion_samples = [
        {"text": "clear_out", "matches": {"clear_output"}},
        {"text": "zzz_nothing", "matches": set()},
    ]

    complete_code_samples = ["x = 1", 'print("hi")', "fn f(a) = a", "for i in range(3) { print(i) }"]
    incomplete_code_samples = ["fn f(a) {", "for i in range(3) {", "print(1,"]
    invalid_code_samples = ['"unterminated', "x = = 1"]

    code_generate_error = "undefined_name_here"

    code_execute_result = [
        {"code": "6", "result": "6"},
        {"code": '"hi"', "result": '"hi"'},
        {"code": "fn seven() = 7\nseven()", "result": "7"},
    ]

    code_display_data = [
        {"code": 'display("shown")', "mime": "text/plain"},
    ]

    code_history_pattern = "6*"
    supported_history_operations = ("tail", "range", "search")

    code_inspect_sample = "print"

    code_clear_output = "clear_output()"


class GcalcIopubWelcomeTests(jkt.IopubWelcomeTests):
    kernel_name = "gcalc"
    support_iopub_welcome = True


if __name__ == "__main__":
    unittest.main()
