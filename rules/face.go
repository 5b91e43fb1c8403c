package rules

// Face returns the opaque value attached to the variant by whoever
// assembled it (Spec.Face, or WithFace): what the programs above the rules
// ask the variant for (its players, descriptions, views). The rules never
// read it. Nil when nothing is attached.
func (v *Variant) Face() any { return v.spec.Face }

// WithFace returns a copy of v that carries f as its Face; v is unchanged.
// Configure carries the face over to the configured variant.
func (v *Variant) WithFace(f any) *Variant {
	nv := *v
	nv.spec.Face = f
	if v.start != nil {
		nv.start = v.start.Clone()
		nv.start.v = &nv
	}
	return &nv
}
