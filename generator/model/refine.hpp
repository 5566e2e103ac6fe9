#pragma once
// Refinements ([:and T [:>= 1] [:re "..."]]) as the generator handles them: PTC_RANGE / PTC_PATTERN
// add them to a derived type, and PTC_SIGNATURE may add more; comparison sets them aside.

#include <vector>

#include <ptc/schema.hpp>

namespace ptcgen::model {

/// Whether `s` is [:and T refinements...].
bool is_refined(const ptc::Schema& s);
/// T of [:and T refinements...]; `s` itself otherwise.
const ptc::Schema& unrefined(const ptc::Schema& s);
/// The refinements of [:and T refinements...]; none otherwise.
std::vector<ptc::Schema> refinements_of(const ptc::Schema& s);

/// `base` with `added` refinements, as [:and T r...]. A bound replaces a looser bound of the same kind
/// instead of piling up ([:>= 0] of an unsigned type gives way to PTC_RANGE(1, 10)'s [:>= 1]); a
/// refinement already there is not repeated.
ptc::Schema refine(const ptc::Schema& base, const std::vector<ptc::Schema>& added);

/// `s` without refinements, entry docs and entry defaults, at every level: the shape PTC_SIGNATURE is
/// compared by.
ptc::Schema shape_of(const ptc::Schema& s);

/// `over` laid on `under`, which have the same shape_of: at every level the refinements of both (those
/// of `over` tightening those of `under`), and entry docs and defaults from `over`, else from `under`.
ptc::Schema overlay(const ptc::Schema& over, const ptc::Schema& under);

}  // namespace ptcgen::model
