"""Collects the case corpus: every `*.case` file under tests/ is a test item."""

from __future__ import annotations

import pytest

from pbem.core.cases import CaseFormatError, parse_case, run_case


def pytest_collect_file(parent, file_path):
    if file_path.suffix == ".case":
        return CaseFile.from_parent(parent, path=file_path)
    return None


class CaseFile(pytest.File):
    def collect(self):
        yield CaseItem.from_parent(self, name=self.path.stem)


class CaseItem(pytest.Item):
    def runtest(self):
        try:
            case = parse_case(self.path)
        except CaseFormatError as error:
            raise CaseFailure([str(error)]) from None
        result = run_case(case)
        if not result.passed:
            raise CaseFailure(result.failures)

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, CaseFailure):
            return "\n".join(excinfo.value.failures)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, 0, f"case {self.name}"


class CaseFailure(Exception):
    def __init__(self, failures):
        super().__init__("\n".join(failures))
        self.failures = failures
