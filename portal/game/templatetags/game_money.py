from django import template

from portal.core.money import dollars

register = template.Library()


register.filter("dollars", dollars)
