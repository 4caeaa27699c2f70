from django import template

from portal.game.money import dollars

register = template.Library()


register.filter("dollars", dollars)
